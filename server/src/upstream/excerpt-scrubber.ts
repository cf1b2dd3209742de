/** Secrets shorter than this are not looked for: they would match ordinary text. */
const MIN_SECRET_LENGTH = 4;

const WITHHELD = '[excerpt withheld: it echoed a credential in an encoded form]';

/** JSON's one-letter escapes that stand for another character; any other `\x` stands for `x`. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** The text with JSON's string escapes undone (`\"`, `\\`, `\/`, `\n`, `\u0026`, surrogate pairs included). */
function jsonUnescaped(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, sequence: string) =>
    sequence.length === 5
      ? String.fromCharCode(Number.parseInt(sequence.slice(1), 16))
      : (SIMPLE_ESCAPES[sequence] ?? sequence),
  );
}

/** The text as a form or URL decoder reads it: `+` as a space, `%xx` in either case, bad sequences kept. */
function percentDecoded(text: string): string {
  const spaced = text.replaceAll('+', ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

/**
 * Makes an upstream body safe to log: each secret is cut out where it appears as sent, and when one still shows
 * once the text is read as JSON or as form/URL encoding (an upstream may echo a request back in any of the many
 * spellings encoders use), the excerpt is withheld whole, since the encoded copy cannot be located in the raw
 * text reliably. Control characters become spaces; the result is at most `maxChars` long.
 */
export function createExcerptScrubber(
  secrets: readonly string[],
  maxChars: number,
): (text: string) => string {
  const sought = [...new Set(secrets.filter((secret) => secret.length >= MIN_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let out = text;
    for (const secret of sought) out = out.split(secret).join('[redacted]');
    const asJson = jsonUnescaped(out);
    const asForm = percentDecoded(out);
    const views = [asJson, asForm, percentDecoded(asJson), jsonUnescaped(asForm)];
    if (sought.some((secret) => views.some((view) => view.includes(secret)))) return WITHHELD;
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
    return out.replace(/[\u0000-\u001f\u007f]+/g, ' ').slice(0, maxChars);
  };
}
