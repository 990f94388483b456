// Malformed input: hostile queries on every GET route and the searches' own syntax, in four parts (see `shard` in
// malformed-input-shared.ts).
import { sweepQueries } from "./malformed-input-shared";

for (let part = 0; part < 4; part++) sweepQueries(part, 4);
