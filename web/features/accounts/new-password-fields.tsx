// "New password" and "Confirm new password" with the spec's hint and their checks: the reset page and the Account page share them.
import { useState } from "react";
import { MIN_PASSWORD_LENGTH, NewPassword, PASSWORD_HINT } from "../../../worker/features/accounts/rules/account";
import { TextField } from "../../design/text-field";

export type NewPassword = { password: string; confirm: string };
type Problems = { password?: string; confirm?: string };

/** The two fields' state and `check()`, which shows their problems and answers the password when there are none. */
export function useNewPassword() {
  const [value, setValue] = useState<NewPassword>({ password: "", confirm: "" });
  const [problems, setProblems] = useState<Problems>({});
  function check(): string | null {
    const found: Problems = {};
    const parsed = NewPassword.safeParse(value.password);
    if (!parsed.success) found.password = parsed.error.issues[0]?.message ?? PASSWORD_HINT;
    else if (value.password !== value.confirm) found.confirm = "Passwords do not match";
    setProblems(found);
    return found.password || found.confirm ? null : value.password;
  }
  return { value, setValue, problems, check, clear: () => setValue({ password: "", confirm: "" }) };
}

export function NewPasswordFields({ state }: { state: ReturnType<typeof useNewPassword> }) {
  const { value, setValue, problems } = state;
  return (
    <>
      <TextField
        label="New password"
        type="password"
        name="password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        value={value.password}
        onChange={(e) => setValue({ ...value, password: e.target.value })}
        hint={problems.password ? undefined : PASSWORD_HINT}
        error={problems.password}
      />
      <TextField
        label="Confirm new password"
        type="password"
        name="confirm"
        autoComplete="new-password"
        required
        value={value.confirm}
        onChange={(e) => setValue({ ...value, confirm: e.target.value })}
        error={problems.confirm}
      />
    </>
  );
}
