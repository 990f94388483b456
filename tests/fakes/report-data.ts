// What an SEO report shows, as plain data every side's tests can import (the web's components, the worker's
// shared-report HTML, the journeys in Chromium): its seven sections' headings, in the order the page shows them.

/** The level-2 headings of a report's sections, in order (the public page, the admin's page and the HTML). */
export const REPORT_SECTION_HEADINGS = [
  "SEO Potential Analysis",
  "Google Ads Analysis",
  "SEO Meta Tags Analysis",
  "Business Description",
  "Google My Business Article Ideas",
  "Blog Post Article Structures",
  "Educational Facebook Posts",
] as const;
