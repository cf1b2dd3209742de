/** What the view shows: one company, or (`group`) the company with every subsidiary the user may see. */
export interface CompanySelection {
  company: string;
  group: boolean;
}

/** After a company's name, what makes it the group: "Acme Europe B.V. and its subsidiaries". */
export const GROUP_SUFFIX = ' and its subsidiaries';
