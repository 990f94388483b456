// What other capabilities use of command-center: nothing yet. It reads the others through their index.ts and reacts
// to their events; its own routes, queries and rules are its own.
export {};
