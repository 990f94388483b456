// The shared data-layer behaviour against D1 in workerd (the same body runs on libSQL in tests/libsql).
import { env } from "cloudflare:test";
import { getDb } from "../../../worker/platform/db/client";
import { dataLayerSuite } from "./data-layer";

dataLayerSuite("D1", () => getDb(env));
