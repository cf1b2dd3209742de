import type { PageJson } from '../upstream/index.ts';

const DATA_MEMBER = Buffer.from('{"data":');

/**
 * The JSON body of one page for the browser: the validated records as they came (see `PageJson`), then our own
 * cursor in place of the upstream's. Nothing else of the upstream's envelope passes.
 */
export function pageBody(page: PageJson, nextCursor: string | null): Buffer<ArrayBuffer> {
  const tail = Buffer.from(`,"next_cursor":${JSON.stringify(nextCursor)},"has_more":${page.has_more}}`);
  return Buffer.concat([DATA_MEMBER, page.data, tail]);
}
