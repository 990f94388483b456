// What other capabilities use of content: everything else in this folder is its own.
export { postModel, runGeneration } from "./engine";
export { postClientFigures, postClientFiguresRead } from "./queries";
export { type PostClientFigures } from "./rules/client-figures";
