// Malformed input: hostile queries on every GET route, shard 3 of 4 (see `shard` in malformed-input-shared.ts).
import { sweepQueries } from "./malformed-input-shared";

sweepQueries(2, 4);
