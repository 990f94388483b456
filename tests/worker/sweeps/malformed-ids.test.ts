// Malformed input: hostile ids in every parameterised route, in three parts (see `shard` in malformed-input-shared.ts).
import { sweepIds } from "./malformed-input-shared";

for (let part = 0; part < 3; part++) sweepIds(part, 3);
