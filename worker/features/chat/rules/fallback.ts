// The local fallback responder: answers by topic in the prospect's terms when the AI is unavailable (pure).
import { tradeOf, type ChatProspect } from "./chat";

export type FallbackTopic = "price" | "timing" | "area" | "guarantee" | "booking" | "greeting" | "other";

const TOPICS: [FallbackTopic, RegExp][] = [
  ["booking", /\b(book|schedul|appointment|estimate|quote|visit|come out|call me|contact)/i],
  ["price", /\b(price|pricing|cost|costs|how much|expensive|cheap|afford|budget|rate|rates|fee|discount|\$)/i],
  ["guarantee", /\b(guarantee|warrant|insur|licen|trust|review|satisf|quality)/i],
  ["timing", /\b(when|soon|today|tomorrow|week|urgent|emergency|asap|how long|available|availability|hours|time)/i],
  ["area", /\b(area|where|located|location|serve|service area|near|city|town|zip|come to|travel)/i],
  ["greeting", /^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i],
];

/** The topic of a visitor's message (the first rule that matches, booking first). */
export function fallbackTopic(message: string): FallbackTopic {
  for (const [topic, re] of TOPICS) if (re.test(message)) return topic;
  return "other";
}

const DISCOUNT = "New customers get 15% off their first service";
const GUARANTEE = "every job is backed by our 100% satisfaction guarantee";

/** A reply in the prospect's terms that always mentions the 15% first-service discount and the 100% guarantee. */
export function fallbackReply(prospect: ChatProspect, message: string): string {
  const trade = tradeOf(prospect).toLowerCase();
  const area = prospect.area || "your area";
  const name = prospect.name;
  switch (fallbackTopic(message)) {
    case "price":
      return `Pricing for ${trade} depends on the size and details of the job, so ${name} gives you a free, no-obligation estimate before any work starts. ${DISCOUNT}, and ${GUARANTEE}. What kind of work do you need?`;
    case "timing":
      return `${name} schedules ${trade} work across ${area} as quickly as possible, and urgent jobs get priority. ${DISCOUNT}, and ${GUARANTEE}. When would you like the work done?`;
    case "area":
      return `${name} serves ${area} and the surrounding communities. ${DISCOUNT}, and ${GUARANTEE}. Where is your project located?`;
    case "guarantee":
      return `Yes: ${GUARANTEE}. If you are not happy, ${name} will make it right. ${DISCOUNT} too. What would you like help with?`;
    case "booking":
      return `Happy to set that up! ${name} can book a visit in ${area} at a time that suits you. ${DISCOUNT}, and ${GUARANTEE}. What day and time work best for you?`;
    case "greeting":
      return `Hello! Thanks for reaching out to ${name}, your local ${trade} team in ${area}. ${DISCOUNT}, and ${GUARANTEE}. How can we help?`;
    default:
      return `Thanks for your question! ${name} provides ${trade} in ${area}, and our team will be glad to help with that. ${DISCOUNT}, and ${GUARANTEE}. Would you like to book a free estimate?`;
  }
}
