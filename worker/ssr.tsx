// The web app's views that the worker renders to HTML, handed to the capabilities that serve whole pages: the one file
// of the worker that imports the web app (lint keeps it so), imported by the entry (worker/index.ts), which sits above
// both. The worker tests' set-up imports it too, for the tests that call worker/app.ts directly.
import { renderToStaticMarkup } from "react-dom/server";
import { ReportNotFoundView, SharedReportView } from "../web/features/reports/shared-report-view";
import { provideSharedReportViews } from "./features/reports";

provideSharedReportViews({
  report: (data) => renderToStaticMarkup(<SharedReportView data={data} />),
  notFound: (brand) => renderToStaticMarkup(<ReportNotFoundView brand={brand} />),
});
