// The view-as record (spec §3/§4): 24-hour validity, the dashboard's view_as rule, sign-out clearing.
import { screen, waitFor } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { describe, expect, it } from "vitest";
import { Sidebar } from "../../web/app/sidebar";
import {
  RETURN_SESSION_KEY,
  VIEW_AS_KEY,
  VIEW_AS_MAX_AGE_MS,
  clearAdminEntries,
  clearViewAs,
  readViewAs,
  startViewAs,
} from "../../web/lib/view-as";
import { renderApp, renderAt, signedIn, stubFetch, json } from "./helpers";

const HOUR = 60 * 60 * 1000;

function store(record: Record<string, unknown>) {
  localStorage.setItem(VIEW_AS_KEY, JSON.stringify(record));
}

function record(ageMs: number, viewingUserId = "user-9") {
  return {
    adminId: "admin-1",
    viewingUserId,
    viewingUserEmail: "owner@acme.test",
    viewingUserDetails: { company_name: "Acme Roofing", is_admin: false },
    timestamp: Date.now() - ageMs,
  };
}

describe("readViewAs", () => {
  it("returns a record under 24 hours old", () => {
    store(record(23 * HOUR + 59 * 60 * 1000));
    expect(readViewAs()?.viewingUserId).toBe("user-9");
    expect(localStorage.getItem(VIEW_AS_KEY)).not.toBeNull();
  });

  it("removes a record 24 hours old or older", () => {
    store(record(VIEW_AS_MAX_AGE_MS));
    expect(readViewAs()).toBeNull();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
    store(record(3 * 24 * HOUR));
    expect(readViewAs()).toBeNull();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
  });

  it("removes an unreadable record", () => {
    localStorage.setItem(VIEW_AS_KEY, "{not json");
    expect(readViewAs()).toBeNull();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
    store({ viewingUserEmail: "x@y.z", timestamp: Date.now() });
    expect(readViewAs()).toBeNull();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
  });

  it("accepts the shorter reading (a) of the record", () => {
    store({ viewingUserId: "user-9", viewingUserEmail: "a@b.c", viewingUserDetails: { company_name: "Acme" }, timestamp: Date.now() });
    expect(readViewAs()?.viewingUserDetails.company_name).toBe("Acme");
  });

  it("on the dashboard keeps a record matching the view_as parameter", () => {
    store(record(HOUR));
    expect(readViewAs(new URLSearchParams("view_as=user-9"))?.viewingUserId).toBe("user-9");
    expect(localStorage.getItem(VIEW_AS_KEY)).not.toBeNull();
  });

  it("on the dashboard removes a record that does not match the view_as parameter", () => {
    store(record(HOUR));
    expect(readViewAs(new URLSearchParams("view_as=someone-else"))).toBeNull();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
  });

  it("on the dashboard removes a record when there is no view_as parameter", () => {
    store(record(HOUR));
    expect(readViewAs(new URLSearchParams(""))).toBeNull();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
  });

  it("elsewhere does not need the parameter", () => {
    store(record(HOUR));
    expect(readViewAs()).not.toBeNull();
  });
});

describe("starting and ending a view", () => {
  it("startViewAs writes a timestamped record, clearViewAs removes it", () => {
    const started = startViewAs({ viewingUserId: "u", viewingUserEmail: "u@x.y", viewingUserDetails: {} });
    expect(Math.abs(started.timestamp - Date.now())).toBeLessThan(1000);
    expect(JSON.parse(localStorage.getItem(VIEW_AS_KEY)!).viewingUserId).toBe("u");
    clearViewAs();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
  });

  it("clearAdminEntries (sign-out) removes both local admin entries", () => {
    store(record(HOUR));
    localStorage.setItem(RETURN_SESSION_KEY, "{}");
    localStorage.setItem("porchlight-auth", "kept-by-auth-js");
    clearAdminEntries();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
    expect(localStorage.getItem(RETURN_SESSION_KEY)).toBeNull();
    expect(localStorage.getItem("porchlight-auth")).toBe("kept-by-auth-js");
  });
});

describe("view mode on screen", () => {
  it("the dashboard with a matching view_as shows the admin-view banner", async () => {
    store(record(HOUR));
    renderApp("/dashboard?view_as=user-9", signedIn({ admin: true }));
    expect(await screen.findByText("Admin view")).toBeTruthy();
    expect(screen.getByText("Acme Roofing's dashboard")).toBeTruthy();
    expect(screen.getByText("Viewing as user")).toBeTruthy();
  });

  it("the dashboard without view_as drops the record and shows the admin's own view", async () => {
    stubFetch(() => json({ reports: [] }));
    store(record(HOUR));
    renderApp("/dashboard", signedIn({ admin: true }));
    expect(await screen.findByText("Content Tools")).toBeTruthy();
    expect(screen.queryByText("Admin view")).toBeNull();
    expect(screen.queryByText("Viewing as user")).toBeNull();
    // The record is dropped by an effect after the render: wait for it rather than race it.
    await waitFor(() => expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull());
    expect(screen.getByRole("list", { name: "Admin" })).toBeTruthy();
  });

  it("an expired record is not view mode anywhere", () => {
    stubFetch(() => json({ reports: [] }));
    store(record(25 * HOUR));
    renderAt(
      "/settings/personal",
      signedIn({ admin: true }),
      <Routes>
        <Route path="*" element={<Sidebar />} />
      </Routes>,
    );
    expect(screen.queryByText("Viewing as user")).toBeNull();
    expect(screen.queryByText("View Mode")).toBeNull();
    expect(localStorage.getItem(VIEW_AS_KEY)).toBeNull();
  });
});
