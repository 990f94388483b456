// Malformed input: hostile queries on every GET route and the searches' own syntax, shard 4 of 4 (see `shard` in malformed-input-shared.ts).
import { sweepQueries } from "./malformed-input-shared";

sweepQueries(3, 4);
