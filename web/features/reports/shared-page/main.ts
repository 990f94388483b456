// Entry of the shared report's own small script (no React): the page is server-rendered, this adds behaviour.
import "./page.css";
import { enhanceSharedReport } from "./enhance";

enhanceSharedReport(document);
