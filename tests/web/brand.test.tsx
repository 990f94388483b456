// The agency's brand in the web app (issue 30): page titles and the app's home link read the brand the worker puts in
// the page; the Brand page checks the accent colour live, offers the nearest readable one, and shows its errors.
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DEFAULT_BRAND, type Brand } from "../../worker/platform/brand/rules/brand";
import { BRAND_META } from "../../worker/platform/brand/rules/theme";
import { json, renderApp, signedIn, stubFetch } from "./helpers";

const ACME: Brand = { ...DEFAULT_BRAND, name: "Acme Growth", custom: true, mailSenderName: "Acme Growth", updatedAt: "2026-11-26T10:00:00.000Z" };

function pageBrand(brand: Omit<Brand, "mailSenderName" | "updatedAt">) {
  document.head.querySelector(`meta[name="${BRAND_META}"]`)!.setAttribute("content", JSON.stringify(brand));
}

describe("the brand in the app", () => {
  it("titles pages and names the home link after the brand the page carries", async () => {
    pageBrand({ ...ACME });
    stubFetch(() => json({ reports: [] }));
    renderApp("/admin/brand", signedIn({ admin: true }));
    await waitFor(() => expect(document.title).toBe("Brand · Acme Growth"));
    expect(screen.getAllByRole("link", { name: "Acme Growth home" }).length).toBeGreaterThan(0);
    expect(document.body.textContent).not.toContain("Porchlight home");
  });
});

describe("the Brand page", () => {
  it("says no brand is set yet, checks the accent live and offers the nearest readable colour", async () => {
    pageBrand({ ...DEFAULT_BRAND });
    const puts: unknown[] = [];
    stubFetch((url, init) => {
      if (url.startsWith("/api/brand") && init.method === "PUT") {
        puts.push(JSON.parse(String(init.body)));
        return json({ brand: { ...ACME } });
      }
      if (url.startsWith("/api/brand")) return json({ brand: { ...DEFAULT_BRAND } });
      return json({ reports: [] });
    });
    renderApp("/admin/brand", signedIn({ admin: true }));
    expect(await screen.findByText("No brand yet")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Agency name"), { target: { value: "Acme Growth" } });
    fireEvent.change(screen.getByLabelText("Accent colour", { selector: "input:not([type=color])" }), { target: { value: "#f2a120" } });
    expect(screen.getByText(/too light/)).toBeTruthy();
    // Saving a colour white text cannot be read on is refused before any request.
    fireEvent.click(screen.getByRole("button", { name: "Save brand" }));
    expect(puts).toEqual([]);
    const use = screen.getByRole("button", { name: /^Use #[0-9a-f]{6}$/ });
    const nearest = use.textContent!.trim().replace(/^Use /, "");
    fireEvent.click(use);
    expect((screen.getByLabelText("Accent colour", { selector: "input:not([type=color])" }) as HTMLInputElement).value).toBe(nearest);
    expect(screen.getByText(/readable/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Save brand" }));
    expect(await screen.findByText(/Brand saved/)).toBeTruthy();
    expect(puts).toEqual([expect.objectContaining({ name: "Acme Growth", accentColor: nearest })]);
  });

  it("answers Save with the accent's field error, on the field, when the accent is not a colour", async () => {
    pageBrand({ ...ACME });
    const puts: unknown[] = [];
    stubFetch((url, init) => {
      if (url.startsWith("/api/brand") && init.method === "PUT") puts.push(JSON.parse(String(init.body)));
      if (url.startsWith("/api/brand")) return json({ brand: { ...ACME } });
      return json({ reports: [] });
    });
    renderApp("/admin/brand", signedIn({ admin: true }));
    const accent = (await screen.findByLabelText("Accent colour", { selector: "input:not([type=color])" })) as HTMLInputElement;
    fireEvent.change(accent, { target: { value: "red!!" } });
    fireEvent.click(screen.getByRole("button", { name: "Save brand" }));
    expect(puts).toEqual([]);
    const error = await screen.findByText("Enter a colour like #1d4ed8");
    expect(error.className).toBe("field-error");
    expect(accent.getAttribute("aria-invalid")).toBe("true");
    expect(accent.getAttribute("aria-describedby")).toBe(error.id);
    await waitFor(() => expect(document.activeElement).toBe(accent));
    // Fixed, the error goes and Save saves.
    fireEvent.change(accent, { target: { value: "#1d4ed8" } });
    expect(screen.queryByText("Enter a colour like #1d4ed8")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Save brand" }));
    expect(await screen.findByText(/Brand saved/)).toBeTruthy();
    expect(puts).toEqual([expect.objectContaining({ accentColor: "#1d4ed8" })]);
  });

  it("shows the error state with Retry when the brand cannot be read", async () => {
    stubFetch((url) => (url.startsWith("/api/brand") ? json({ error: { code: "internal_error", message: "Boom" } }, 500) : json({ reports: [] })));
    renderApp("/admin/brand", signedIn({ admin: true }));
    expect(await screen.findByText(/Failed to load the brand/)).toBeTruthy();
    expect(screen.getByRole("button", { name: /retry|try again/i })).toBeTruthy();
  });
});
