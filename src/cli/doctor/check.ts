/** One line of `hookbox doctor`: what was checked, whether it holds, and what to do when it does not. */
export interface DoctorCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  /** Informational: shown, never a failure (no daemon running, say). */
  readonly note?: boolean;
}

export function pass(name: string, detail: string): DoctorCheck {
  return { name, ok: true, detail };
}

export function fail(name: string, detail: string): DoctorCheck {
  return { name, ok: false, detail };
}

export function note(name: string, detail: string): DoctorCheck {
  return { name, ok: true, detail, note: true };
}
