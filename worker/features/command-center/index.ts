// What other capabilities use of command-center: everything else in this folder is its own.
export { attentionList } from "./attention";
