export { type Decoded, decodePage, decodePageJson, type PageJson } from './page-decoding.ts';
export * from './retry-policy.ts';
export * from './upstream-client.ts';
