// What other capabilities use of client-reports: everything else in this folder is its own.
export { clientReportsConsumer, clientReportsDeadLetters } from "./queue";
