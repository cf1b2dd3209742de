import { csvBody } from './csv-body.ts';
import type { ExportFormat } from './export-route.ts';

/** UTF-8 text, every cell quoted (csv-format.ts). */
export const CSV_EXPORT: ExportFormat = {
  extension: 'csv',
  contentType: 'text/csv; charset=utf-8',
  body: csvBody,
};
