import { type ErrorCode, PROBLEM_CONTENT_TYPE, problem } from '@payments/shared';

/** An RFC 9457 problem+json response built from the shared vocabulary of error codes. */
export function problemResponse(
  code: ErrorCode,
  status: number,
  detail: string,
  init: { headers?: Record<string, string>; extra?: Record<string, unknown> } = {},
): Response {
  return new Response(JSON.stringify(problem(code, status, detail, init.extra)), {
    status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...init.headers },
  });
}

/** A client-supplied name or value, quoted and cut short, safe to echo inside an error message. */
export function quoted(value: string, max = 40): string {
  return JSON.stringify(value.length > max ? `${value.slice(0, max)}…` : value);
}
