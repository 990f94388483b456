// What other features use of the command center's screens.
export { AttentionTop } from "./attention-top";
