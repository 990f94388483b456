// What other capabilities use of usage: everything else in this folder is its own.
export { usageClientFigures, usageClientFiguresRead } from "./queries";
export { type UsageClientFigures } from "./rules/client-figures";
