import { csvBody } from './csv-body.ts';
import type { ExportFormat } from './export-route.ts';
import { xlsxBody } from './xlsx-body.ts';

/** UTF-8 text, every cell quoted (csv-format.ts). */
export const CSV_EXPORT: ExportFormat = {
  extension: 'csv',
  contentType: 'text/csv; charset=utf-8',
  body: csvBody,
};

/** A typed workbook (xlsx-body.ts). */
export const XLSX_EXPORT: ExportFormat = {
  extension: 'xlsx',
  contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  body: (file) => xlsxBody(file),
};
