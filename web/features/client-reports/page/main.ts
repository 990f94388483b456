// Entry of the monthly client report's script (no React): the page is complete without it; it only says the page was
// opened. A preview (`?preview=1`) carries no visit token, so it sends nothing and the server would not count it.
import "./page.css";
import { CLIENT_REPORT_EVENTS_PATH } from "../../../../worker/features/reports/rules/event-names";
import { beaconSender } from "../../../lib/beacon";

const page = document.querySelector<HTMLElement>("[data-client-report]");
const token = page?.dataset.clientReport;
if (token && document.querySelector('meta[name="visit-token"]')) beaconSender(token, CLIENT_REPORT_EVENTS_PATH(token))("opened");
