export const PASSWORD_MIN_LENGTH = 10;

/** Why a new password is not acceptable, or undefined when it is. */
export function passwordProblem(password: string, email: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) {
    return `The new password must be at least ${PASSWORD_MIN_LENGTH} characters long.`;
  }
  if (!/\p{L}/u.test(password) || !/\p{N}/u.test(password)) {
    return 'The new password must contain at least one letter and one digit.';
  }
  const local = email.split('@')[0] ?? '';
  if (local.length >= 3 && password.toLowerCase().includes(local.toLowerCase())) {
    return 'The new password must not contain your e-mail address.';
  }
  return undefined;
}
