// Malformed input: hostile ids in every parameterised route, shard 2 of 3 (see `shard` in malformed-input-shared.ts).
import { sweepIds } from "./malformed-input-shared";

sweepIds(1, 3);
