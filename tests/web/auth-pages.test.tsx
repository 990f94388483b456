// Sign-in, sign-up and forgot-password screens: busy labels, §8 error wording, what success does.
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { createMemoryRouter, RouterProvider, useLocation } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { AuthContext } from "../../web/lib/auth";
import ForgotPasswordPage from "../../web/features/accounts/pages/forgot-password";
import LoginPage from "../../web/features/accounts/pages/login";
import SignupPage from "../../web/features/accounts/pages/signup";
import { fakeAuth, json, signedIn, stubFetch } from "./helpers";

// The boundary: the auth-js client.
const client = vi.hoisted(() => ({
  signInWithPassword: (async () => ({ error: null })) as (c: unknown) => Promise<{ error: unknown }>,
  refreshSession: (async () => ({ error: null })) as () => Promise<{ error: unknown }>,
  signUp: (async () => ({ error: null })) as (c: unknown) => Promise<{ error: unknown }>,
  resetPasswordForEmail: (async () => ({ error: null })) as (e: string, o: unknown) => Promise<{ error: unknown }>,
  resend: (async () => ({ error: null })) as (p: unknown) => Promise<{ error: unknown }>,
  getSession: (async () => ({ data: { session: { access_token: "aal1-token" } }, error: null })) as () => Promise<{ data: unknown; error: unknown }>,
  setSession: (async () => ({ data: {}, error: null })) as (s: unknown) => Promise<{ data: unknown; error: unknown }>,
  mfa: {
    getAuthenticatorAssuranceLevel: (async () => ({ data: { currentLevel: "aal1", nextLevel: "aal1" }, error: null })) as () => Promise<{ data: unknown; error: unknown }>,
    listFactors: (async () => ({ data: { totp: [{ id: "factor-1" }], all: [] }, error: null })) as () => Promise<{ data: unknown; error: unknown }>,
    challengeAndVerify: (async () => ({ data: {}, error: null })) as (p: unknown) => Promise<{ data: unknown; error: unknown }>,
  },
}));
vi.mock("../../web/lib/auth-client", () => ({
  getAuthClient: () => client,
  linkError: () => null,
  openedFromRecoveryLink: () => false,
}));

function Landed() {
  return <p>landed on {useLocation().pathname}</p>;
}

function renderPage(path: string, Page: () => React.JSX.Element) {
  const router = createMemoryRouter(
    [
      { path, element: <Page /> },
      { path: "*", element: <Landed /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <AuthContext.Provider value={fakeAuth()}>
      <RouterProvider router={router} />
    </AuthContext.Provider>,
  );
  return router;
}

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

beforeEach(() => {
  vi.restoreAllMocks();
});

describe("sign-in", () => {
  async function submitWith(error: unknown) {
    vi.spyOn(client, "signInWithPassword").mockResolvedValue({ error });
    renderPage("/login", LoginPage);
    fill("Email", "owner@plumbing.test");
    fill("Password", "secret1");
    fireEvent.submit(screen.getByRole("button", { name: "Sign in" }).closest("form")!);
    return screen.findByRole("alert");
  }

  it("requires an email of email type and a password", () => {
    renderPage("/login", LoginPage);
    const email = screen.getByLabelText("Email") as HTMLInputElement;
    const password = screen.getByLabelText("Password") as HTMLInputElement;
    expect(email.type).toBe("email");
    expect(email.required).toBe(true);
    expect(password.required).toBe(true);
  });

  it("reads 'Signing in...' while busy, then goes to /dashboard", async () => {
    const pending = deferred<{ error: null }>();
    const signIn = vi.spyOn(client, "signInWithPassword").mockReturnValue(pending.promise);
    const refresh = vi.spyOn(client, "refreshSession");
    const router = renderPage("/login", LoginPage);
    fill("Email", " owner@plumbing.test ");
    fill("Password", "secret1");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByRole("button", { name: "Signing in..." })).toHaveProperty("disabled", true);
    expect(signIn).toHaveBeenCalledWith({ email: "owner@plumbing.test", password: "secret1" });
    await act(async () => pending.resolve({ error: null }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(refresh).toHaveBeenCalled();
  });

  it("explains invalid credentials", async () => {
    const alert = await submitWith({ status: 400, code: "invalid_credentials", message: "Invalid login credentials" });
    expect(alert.textContent).toBe(
      "Invalid login credentials. Please make sure you have signed up first using the Sign Up page.",
    );
  });

  it("explains a server error", async () => {
    const alert = await submitWith({ status: 500, message: "whatever" });
    expect(alert.textContent).toBe(
      "A server error occurred. This may be because the user does not exist in the auth system. Please sign up first.",
    );
  });

  it("shows the service's message otherwise (e.g. the 429 limit)", async () => {
    const alert = await submitWith({
      status: 429,
      code: "over_request_rate_limit",
      message: "Too many attempts. Please wait a few minutes and try again.",
    });
    expect(alert.textContent).toBe("Too many attempts. Please wait a few minutes and try again.");
  });

  it("falls back to 'An error occurred during login'", async () => {
    const alert = await submitWith({ status: 400, message: "" });
    expect(alert.textContent).toBe("An error occurred during login");
  });
});

describe("sign-in with two-factor sign-in", () => {
  function renderCodeStep() {
    const router = createMemoryRouter(
      [
        { path: "/login", element: <LoginPage /> },
        { path: "*", element: <Landed /> },
      ],
      { initialEntries: ["/login"] },
    );
    render(
      <AuthContext.Provider value={{ ...signedIn(), needsCode: true }}>
        <RouterProvider router={router} />
      </AuthContext.Provider>,
    );
    return router;
  }

  it("asks for the code from the authenticator app, then goes to /dashboard", async () => {
    const verify = vi.spyOn(client.mfa, "challengeAndVerify");
    const router = renderCodeStep();
    expect(screen.getByRole("heading", { name: "Two-factor sign-in" })).toBeTruthy();
    expect(screen.getByText("Enter the 6-digit code from your authenticator app.")).toBeTruthy();
    fill("Authentication code", "123 456");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(verify).toHaveBeenCalledWith({ factorId: "factor-1", code: "123456" });
  });

  it("refuses a code that is not six digits without calling the service", async () => {
    const verify = vi.spyOn(client.mfa, "challengeAndVerify");
    renderCodeStep();
    fill("Authentication code", "12ab");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText("The code is the 6 digits your authenticator app shows now.")).toBeTruthy();
    expect(verify).not.toHaveBeenCalled();
  });

  it("offers a recovery code for a lost phone: the session is raised with it, then the Account page says what to do (issue 26)", async () => {
    const setSession = vi.spyOn(client, "setSession");
    const calls: { url: string; auth: string | null; body: unknown }[] = [];
    stubFetch((url, init) => {
      calls.push({ url, auth: new Headers(init.headers).get("Authorization"), body: JSON.parse(String(init.body)) });
      return (calls.length === 1
        ? json({ code: 422, error_code: "mfa_verification_failed", msg: "Invalid recovery code entered, or it was already used" }, 422)
        : json({ access_token: "aal2-token", refresh_token: "refresh-2" }));
    });
    const router = renderCodeStep();
    fireEvent.click(screen.getByRole("button", { name: "Lost your phone? Use a recovery code" }));
    fill("Recovery code", "12ab");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect(await screen.findByText(/A recovery code is the 10 letters and digits/)).toBeTruthy();
    expect(calls).toHaveLength(0);
    fill("Recovery code", "abcde 23456");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/That recovery code is not right, or it was already used/);
    fill("Recovery code", "abcde-23457");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/settings/account"));
    expect(router.state.location.search).toBe("?recovered=1");
    expect(calls.map((c) => [new URL(c.url, "http://x").pathname, c.auth, c.body])).toEqual([
      ["/auth/v1/factors/recovery-codes/verify", "Bearer aal1-token", { code: "ABCDE23456" }],
      ["/auth/v1/factors/recovery-codes/verify", "Bearer aal1-token", { code: "ABCDE23457" }],
    ]);
    expect(setSession).toHaveBeenCalledWith({ access_token: "aal2-token", refresh_token: "refresh-2" });
    vi.unstubAllGlobals();
  });

  it("says so clearly for a wrong code and for a code already used", async () => {
    const verify = vi.spyOn(client.mfa, "challengeAndVerify");
    renderCodeStep();
    verify.mockResolvedValueOnce({ data: null, error: { code: "mfa_verification_failed", status: 422, message: "Invalid TOTP code entered" } });
    fill("Authentication code", "111111");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    expect((await screen.findByRole("alert")).textContent).toMatch(/That code is not right/);
    verify.mockResolvedValueOnce({ data: null, error: { code: "mfa_code_reused", status: 422, message: "This code has already been used." } });
    fill("Authentication code", "222222");
    fireEvent.click(screen.getByRole("button", { name: "Sign in" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toMatch(/That code was already used/));
  });
});

describe("sign-up", () => {
  it("shows the password hint and refuses a password under 8 characters without calling the service", async () => {
    const signUp = vi.spyOn(client, "signUp");
    renderPage("/signup", SignupPage);
    expect(screen.getByText("Password must be at least 8 characters")).toBeTruthy();
    fill("Email", "new@roof.test");
    fill("Password", "1234567");
    fireEvent.submit(screen.getByRole("button", { name: "Sign up" }).closest("form")!);
    expect(screen.getByLabelText("Password").getAttribute("aria-invalid")).toBe("true");
    expect(signUp).not.toHaveBeenCalled();
  });

  it("reads 'Signing up...', shows a success message and goes to /login after 2 seconds", async () => {
    const pending = deferred<{ error: null }>();
    const signUp = vi.spyOn(client, "signUp").mockReturnValue(pending.promise);
    const router = renderPage("/signup", SignupPage);
    fill("Email", "new@roof.test");
    fill("Password", "12345678");
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    expect(await screen.findByRole("button", { name: "Signing up..." })).toBeTruthy();
    expect(signUp).toHaveBeenCalledWith({ email: "new@roof.test", password: "12345678" });
    vi.useFakeTimers();
    await act(async () => pending.resolve({ error: null }));
    const message = screen.getByRole("status");
    expect(message.className).toContain("alert-success");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_900);
    });
    expect(router.state.location.pathname).toBe("/signup");
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(router.state.location.pathname).toBe("/login");
  });

  it("explains a server error and otherwise shows the service's message", async () => {
    const signUp = vi.spyOn(client, "signUp").mockResolvedValueOnce({ error: { status: 500, message: "db down" } });
    renderPage("/signup", SignupPage);
    fill("Email", "new@roof.test");
    fill("Password", "12345678");
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    expect((await screen.findByRole("alert")).textContent).toBe("A server error occurred. Please try again later.");
    signUp.mockResolvedValueOnce({ error: { status: 422, message: "User already registered" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("User already registered"));
    signUp.mockResolvedValueOnce({ error: { status: 400, message: "" } });
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toBe("An error occurred during signup"));
  });
});

describe("the confirmation link again (issue 39)", () => {
  it("is offered on the sign-up done screen, and says where it went", async () => {
    const resend = vi.spyOn(client, "resend");
    vi.spyOn(client, "signUp").mockResolvedValueOnce({ error: null });
    renderPage("/signup", SignupPage);
    fill("Email", "new@roof.test");
    fill("Password", "12345678");
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    fireEvent.click(await screen.findByRole("button", { name: "Send the link again" }));
    await waitFor(() => expect(resend).toHaveBeenCalledWith({ type: "signup", email: "new@roof.test" }));
    expect((await screen.findByText(/We sent a new link to new@roof.test/)).textContent).toContain("It works for a day.");
  });

  it("after 'User already registered', leads to sign-in, a password reset, or the link again (and says when asked too often)", async () => {
    const resend = vi.spyOn(client, "resend").mockResolvedValueOnce({ error: { status: 429, message: "Too many attempts." } });
    vi.spyOn(client, "signUp").mockResolvedValueOnce({ error: { status: 422, code: "user_already_exists", message: "User already registered" } });
    renderPage("/signup", SignupPage);
    fill("Email", "old@roof.test");
    fill("Password", "12345678");
    fireEvent.click(screen.getByRole("button", { name: "Sign up" }));
    expect(await screen.findByText("This email already has an account")).toBeTruthy();
    expect(screen.getAllByRole("link", { name: "Sign in" }).map((a) => a.getAttribute("href"))).toEqual(["/login", "/login"]);
    expect(screen.getByRole("link", { name: "reset the password" }).getAttribute("href")).toBe("/forgot-password");
    fireEvent.click(screen.getByRole("button", { name: "Send the link again" }));
    await waitFor(() => expect(resend).toHaveBeenCalledWith({ type: "signup", email: "old@roof.test" }));
    expect(await screen.findByText(/You asked for the link a few times already/)).toBeTruthy();
  });
});

describe("forgot password", () => {
  it("asks for a link back to /reset-password and says where it went", async () => {
    const reset = vi.spyOn(client, "resetPasswordForEmail");
    renderPage("/forgot-password", ForgotPasswordPage);
    fill("Email", "owner@plumbing.test");
    fireEvent.click(screen.getByRole("button", { name: "Send reset link" }));
    expect(
      await screen.findByText("If an account exists for owner@plumbing.test, we sent a link to reset the password."),
    ).toBeTruthy();
    expect(reset).toHaveBeenCalledWith("owner@plumbing.test", { redirectTo: `${window.location.origin}/reset-password` });
  });
});
