/** The files the view can be downloaded as: `GET /api/payments/export.<format>`, one query for both. */
export type ExportFormat = 'csv' | 'xlsx';

export const EXPORT_FORMATS: Readonly<Record<ExportFormat, { label: string; type: string }>> = {
  csv: { label: 'CSV', type: 'text/csv' },
  xlsx: {
    label: 'Excel (XLSX)',
    type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  },
};
