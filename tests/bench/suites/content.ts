// Content suite figures (issue 20): each generator's time beyond the fake AI — POST /api/content/:tool against the
// fake (300 ms answers), interleaved with the same prompt sent to the fake directly; target ≤ 50 ms at p50.
import { CONTENT_RULES } from "../../../worker/features/content/generate";
import { CONTENT_TOOLS, type ContentTool } from "../../../worker/features/content/rules/content";
import { interleaved, percentile, round, confirmedSignUp, type Figure, type Suite } from "../lib";

const SAMPLES = 20;
const BUSINESS = { company_name: "Bench Roofing", company_location: "Austin, TX", company_category: "Roofing", company_description: "Roofers since 1998." };
const INPUTS: Record<ContentTool, object> = {
  "gmb-post": { postType: "OFFER", topic: "Spring roof check", couponCode: "SPRING", ctaType: "CALL" },
  "social-posts": { idea: "Spring roof check", networks: ["facebook", "instagram", "linkedin", "x", "google-business", "nextdoor"] },
  "video-script": { topic: "Spring roof check", seconds: 60 },
  "social-plan": { month: "2026-12", networks: ["facebook", "instagram", "google-business"], postsPerWeek: 5 },
};

export const contentSuite: Suite = {
  name: "content",
  async run({ baseUrl, aiUrl }) {
    const owner = await confirmedSignUp(baseUrl, `bench-content-${Date.now().toString(36)}@example.test`);
    const headers = { Authorization: `Bearer ${owner.access_token}`, "Content-Type": "application/json" };
    const put = await fetch(`${baseUrl}/api/profile`, { method: "PUT", headers, body: JSON.stringify(BUSINESS) });
    if (put.status !== 200) throw new Error(`profile answered ${put.status}`);
    const figures: Figure[] = [];
    for (const tool of CONTENT_TOOLS) {
      const rules = CONTENT_RULES[tool];
      const prompt = rules.prompt(BUSINESS, rules.request.parse(INPUTS[tool]), null, new Date());
      const generate = async () => {
        const res = await fetch(`${baseUrl}/api/content/${tool}`, { method: "POST", headers, body: JSON.stringify(INPUTS[tool]) });
        const body = (await res.json()) as { item?: { source: string } };
        if (res.status !== 201 || body.item?.source !== "ai") throw new Error(`${tool} answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      };
      const direct = async () => {
        const res = await fetch(`${aiUrl}/chat/completions`, {
          method: "POST",
          headers: { Authorization: "Bearer fake-key", "Content-Type": "application/json" },
          body: JSON.stringify({ model: "google/gemini-2.5-flash-lite", messages: [{ role: "user", content: prompt }], max_tokens: rules.maxTokens, temperature: rules.temperature, response_format: { type: "json_object" } }),
        });
        await res.arrayBuffer();
      };
      for (let i = 0; i < 3; i++) await generate();
      const [whole, fake] = await interleaved(SAMPLES, generate, direct);
      const beyond = percentile(whole, 50) - percentile(fake, 50);
      figures.push(
        { name: `POST /api/content/${tool} p50`, value: round(percentile(whole, 50)), unit: "ms", note: `${SAMPLES} interleaved with the fake called directly` },
        { name: `${tool}: fake AI called directly p50, same loop`, value: round(percentile(fake, 50)), unit: "ms", note: "fake latency 300 ms" },
        { name: `${tool}: time beyond the fake AI (p50 − p50)`, value: round(beyond), unit: "ms", note: "auth, profile, meter, SDK, parse, length rules, insert, usage event; target ≤ 50 ms" },
      );
    }
    return figures;
  },
};
