// /: the landing page inside the app (a client-side link to the home page). A visit to / itself gets the
// pre-rendered landing.html from the worker instead, with none of the app's code.
import { useEffect } from "react";
import { enhanceLanding } from "../enhance";
import { LandingMarkup } from "../markup";
import { useBrand } from "../../brand";
import "../../../design/plans.css";
import "../landing.css";

/** `/` inside the app (a client-side link to the home page): the same markup and menu behaviour. */
export default function LandingPage() {
  useEffect(() => enhanceLanding(document), []);
  const brand = useBrand();
  return (
    <>
      <title>{`${brand.name} — AI marketing for local home-service businesses`}</title>
      <LandingMarkup brand={brand} />
    </>
  );
}
