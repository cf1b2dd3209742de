/**
 * Counts CSV records (line ends outside quotes) across chunk boundaries. A quoted field may hold line breaks,
 * so counting raw newlines would overstate the rows of a description that spans lines.
 */
export class CsvRecordCounter {
  records = 0;
  private inQuotes = false;
  private lastWasNewline = true;

  /** Whether the text so far ends with a whole record: the BFF ends every record, the last one included, with a line end. */
  get atRecordEnd(): boolean {
    return this.lastWasNewline && !this.inQuotes;
  }

  push(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === 34 /* " */) this.inQuotes = !this.inQuotes;
      else if (ch === 10 /* \n */ && !this.inQuotes) {
        this.records++;
        this.lastWasNewline = true;
        continue;
      }
      this.lastWasNewline = false;
    }
  }

  /** Records seen once the stream ended (a last line without its line end still counts). */
  finish(): number {
    return this.records + (this.lastWasNewline ? 0 : 1);
  }
}
