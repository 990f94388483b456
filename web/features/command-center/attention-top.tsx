// The top of the attention queue on an admin's dashboard (issue 41): the most urgent open items across every client,
// each with its client and what happened, and the way to the whole queue. Nothing shows when nothing needs a person.
import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { Badge } from "../../design/badge";
import { attentionQuery } from "./queries";
import "./attention.css";

const SHOWN = 5;

export function AttentionTop() {
  const query = useQuery(attentionQuery("open"));
  const items = query.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section className="card card-pad att-top" aria-labelledby="att-top-title">
      <h2 className="integration-subtitle" id="att-top-title">
        Needs attention
      </h2>
      <ul>
        {items.slice(0, SHOWN).map((i) => (
          <li key={i.id}>
            <Badge tone={i.kind === "verification_lost" ? "danger" : "warning"}>{i.kindLabel}</Badge> <strong>{i.client.name}</strong>: {i.title}
          </li>
        ))}
      </ul>
      <Link to="/admin/attention">{items.length > SHOWN ? `See all ${query.data?.counts.open ?? items.length}` : "Open the queue"}</Link>
    </section>
  );
}
