// Malformed input: bad bodies on every body-taking route, shard 2 of 6 (see `shard` in malformed-input-shared.ts).
import { sweepBodies } from "./malformed-input-shared";

sweepBodies(1, 6);
