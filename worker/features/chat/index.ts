// What other capabilities use of chat: everything else in this folder is its own.
export { lastChatAt } from "./queries";
