// The Account page's recovery codes (issue 26): none yet, a new set shown once with copy and download, then only the
// count; few left warns; a new set asks first. The boundary is fetch to /auth/v1/factors/recovery-codes.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RecoveryCodesPanel } from "../../web/features/accounts/recovery-codes";
import type { RecoveryCodeSet } from "../../web/features/accounts/queries";
import { json, renderAt, signedIn, stubFetch } from "./helpers";

vi.mock("../../web/lib/auth-client", () => ({
  getAuthClient: () => ({ getSession: async () => ({ data: { session: { access_token: "aal2-token" } }, error: null }) }),
}));

const CODES = ["ABCDE-23456", "FGHJK-78923", "MNPQR-STVWX", "YZ234-56789", "ABCDE-FGHJK", "23456-78923", "QRSTV-WXYZ2", "34567-89ABC", "DEFGH-JKMNP", "QRSTV-23456"];

function Panel() {
  const [fresh, setFresh] = useState<RecoveryCodeSet | null>(null);
  return <RecoveryCodesPanel email="owner@plumbing.test" fresh={fresh} onFresh={setFresh} />;
}

afterEach(() => vi.unstubAllGlobals());

describe("recovery codes on the Account page", () => {
  it("none yet: creates a set, shows it once with copy and download, then only how many are left", async () => {
    let status = { total: 0, remaining: 0, created_at: null as string | null };
    const fetch = stubFetch((url, init) => {
      expect(new Headers(init.headers).get("Authorization")).toBe("Bearer aal2-token");
      if (init.method === "POST") {
        status = { total: 10, remaining: 10, created_at: "2026-11-26T12:00:00.000Z" };
        return json({ codes: CODES, created_at: status.created_at });
      }
      return json(status);
    });
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal("navigator", { ...navigator, clipboard: { writeText } });
    renderAt("/settings/account", signedIn(), <Panel />);
    expect(await screen.findByText(/No recovery codes yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Create 10 recovery codes" }));
    const list = await screen.findByTestId("recovery-codes");
    expect([...list.querySelectorAll("code")].map((c) => c.textContent)).toEqual(CODES);
    expect(screen.getByText("Save these codes now")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Copy" }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(CODES.join("\n")));
    expect(await screen.findByRole("button", { name: "Copied" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "I saved them" }));
    expect(await screen.findByText("10 of 10 recovery codes left, made Nov 26, 2026.")).toBeTruthy();
    expect(screen.queryByTestId("recovery-codes")).toBeNull();
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method ?? "GET"} ${new URL(String(url), "http://x").pathname}`)).toContain("POST /auth/v1/factors/recovery-codes");
  });

  it("warns when few are left, and asks before a new set replaces the old one", async () => {
    const posts: string[] = [];
    stubFetch((url, init) => {
      if (init.method === "POST") {
        posts.push(url);
        return json({ codes: CODES, created_at: "2026-11-26T12:00:00.000Z" });
      }
      return json({ total: 10, remaining: 2, created_at: "2026-10-01T12:00:00.000Z" });
    });
    renderAt("/settings/account", signedIn(), <Panel />);
    expect(await screen.findByText("Only 2 recovery codes left")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Make new recovery codes" }));
    expect(screen.getByText("The codes you have now stop working at once.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Keep my codes" }));
    expect(posts).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Make new recovery codes" }));
    fireEvent.click(screen.getByRole("button", { name: "Make new codes" }));
    expect(await screen.findByTestId("recovery-codes")).toBeTruthy();
    expect(posts).toHaveLength(1);
  });

  it("says when the count cannot be read, with a retry", async () => {
    stubFetch(() => json({ code: 500, error_code: "unexpected_failure", msg: "The service is briefly unavailable." }, 500));
    renderAt("/settings/account", signedIn(), <Panel />);
    expect(await screen.findByText(/Failed to load your recovery codes: The service is briefly unavailable./)).toBeTruthy();
    expect(screen.getByRole("button", { name: "Try again" })).toBeTruthy();
  });
});
