// The `:id` path parameter of every resource: ids are UUIDs, so anything much longer is not one of ours.
import { z } from "zod";

export const MAX_ID_LENGTH = 64;
export const IdParam = z.object({ id: z.string().min(1).max(MAX_ID_LENGTH) });
