/**
 * `npm start` and `npm run demo` as a person runs them, stopped by the process id of npm (what a process
 * manager, `kill <pid>` or an IDE's stop button does): the signal reaches the service, which shuts down
 * and frees its port; nothing of it outlives npm.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { childPids, portTaken, running, startNpmScript, until, type NpmScript } from '../helpers/npm-script.js';

describe('npm scripts stop with their process', () => {
  let script: NpmScript | undefined;
  afterEach(async () => {
    await script?.cleanUp();
    script = undefined;
  });

  for (const name of ['start', 'demo'] as const) {
    it(`npm ${name === 'start' ? 'start' : 'run demo'} killed by its pid (SIGTERM) stops the service and frees the port`, async () => {
      script = await startNpmScript(name);
      await script.healthy();
      if (name === 'demo') {
        await until(
          () => {
            if (script!.child.exitCode !== null) throw new Error(`npm run demo exited:\n${script!.output()}`);
            return script!.output().includes('Demo fleet running');
          },
          'the demo banner',
        );
        // The sign-ins the banner prints are what it says they are.
        const signIns = [...script.output().matchAll(/^ {2}(?:dispatcher|owner) sign-in: +(\S+) \/ (\S+) +\((DISPATCHER|OWNER):/gm)].map((m) => ({ email: m[1]!, password: m[2]!, role: m[3]! }));
        expect(signIns.map((x) => x.role)).toEqual(['DISPATCHER', 'OWNER']);
        for (const { role, email, password } of signIns) {
          const res = await fetch(`${script.baseUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
          expect(res.status, email).toBe(200);
          expect(((await res.json()) as { user: { role: string } }).user.role, email).toBe(role);
        }
        expect(script.output()).toMatch(/dispatcher sign-in: +dispatch@demo\.fleet \/ demo-password +\(DISPATCHER:/);
      }
      const npmPid = script.child.pid!;
      const service = childPids(npmPid);
      expect(service.length, 'npm runs the service as its own child (exec: no shell in between)').toBe(1);
      expect(await portTaken(script.port)).toBe(true);

      process.kill(npmPid, 'SIGTERM');
      const exit = await script.exited;
      expect(exit.signal === 'SIGTERM' || exit.code === 0 || exit.code === 143, JSON.stringify(exit)).toBe(true);
      await until(() => !running(service[0]!), 'the service process to end', 30_000);
      expect(await portTaken(script.port)).toBe(false);
      await script.outputClosed;
      if (name === 'start') expect(script.output()).toContain('"msg":"shut down"');
      // A first `npm start` builds the service and the dashboard (what a person's first run does): on a
      // busy CI machine that alone can pass a minute, so the test allows what healthy() allows.
    }, 240_000);
  }
});
