// Entry of the shared report's own small script (no React): the page is server-rendered, this adds behaviour.
import "../styles.css";
import "../report.css";
import { enhanceSharedReport } from "./enhance";

enhanceSharedReport(document);
