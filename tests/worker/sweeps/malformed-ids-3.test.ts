// Malformed input: hostile ids in every parameterised route, shard 3 of 3 (see `shard` in malformed-input-shared.ts).
import { sweepIds } from "./malformed-input-shared";

sweepIds(2, 3);
