/**
 * The demo's driver account: a DRIVER user linked to one demo driver, made the way a fleet makes one —
 * an invitation through the API, accepted with the token from its e-mail — with a known password, so the
 * driver view can be tried at once. The demo keeps its outgoing mail in memory too (DemoMailbox) to
 * read the invitation's token; every message still goes to the outbox (or SMTP) as usual.
 */
import type { Mail, Mailer } from '../infra/mailer.js';
import type { ApiCaller } from './api.js';
import type { Truck } from './fleet.js';

/** T-103 reports through the API (not an ELD), so the duty status the driver logs in the driver view is what their clocks show. */
export const DEMO_DRIVER = { email: 'driver@demo.fleet', password: 'demo-driver-password', unit: 'T-103' } as const;

/** The token of the latest invitation e-mail to `email` among `mails`, or null. */
export function invitationToken(mails: readonly Mail[], email: string): string | null {
  for (let i = mails.length - 1; i >= 0; i--) {
    const mail = mails[i]!;
    if (mail.to !== email) continue;
    const match = /\/accept-invitation\?token=([^\s]+)/.exec(mail.text);
    if (match) return decodeURIComponent(match[1]!);
  }
  return null;
}

/** Forwards every message and keeps the last few in memory, so the demo can read its own invitations. */
export class DemoMailbox implements Mailer {
  readonly sent: Mail[] = [];
  constructor(
    private readonly forward: Mailer | null,
    private readonly keep = 50,
  ) {}

  async send(mail: Mail): Promise<void> {
    this.sent.push(mail);
    if (this.sent.length > this.keep) this.sent.splice(0, this.sent.length - this.keep);
    await this.forward?.send(mail);
  }
}

export interface DriverAccount {
  userId: string;
  driverId: string;
  email: string;
  password: string;
  name: string;
  unit: string;
}

/**
 * A user of the demo tenant made through an invitation (as the tenant's owner) and its acceptance (as the
 * invitee, with no credentials) with `password`: a DISPATCHER, or a DRIVER linked to `driverId`.
 */
export async function inviteAndAccept(
  owner: ApiCaller,
  anonymous: ApiCaller,
  mails: () => readonly Mail[],
  invitee: { email: string; password: string; role: 'DISPATCHER' | 'DRIVER'; firstName: string; lastName: string; driverId?: string },
): Promise<{ userId: string }> {
  const { email, password, ...rest } = invitee;
  await owner.call('POST', '/api/v1/user-invitations', { email, ...rest });
  const token = invitationToken(mails(), email);
  if (!token) throw new Error(`the invitation e-mail to ${email} was not found`);
  const { user } = await anonymous.call<{ user: { id: string } }>('POST', '/api/v1/user-invitations/accept', { token, password });
  return { userId: user.id };
}

/** Invites `truck`'s driver as a DRIVER user linked to their driver profile and accepts the invitation with `password`. */
export async function createDriverAccount(
  owner: ApiCaller,
  anonymous: ApiCaller,
  mails: () => readonly Mail[],
  truck: Pick<Truck, 'driverId'> & { spec: Pick<Truck['spec'], 'driver' | 'unit'> },
  account: { email: string; password: string } = DEMO_DRIVER,
): Promise<DriverAccount> {
  const { firstName, lastName } = truck.spec.driver;
  const { userId } = await inviteAndAccept(owner, anonymous, mails, { email: account.email, password: account.password, role: 'DRIVER', driverId: truck.driverId, firstName, lastName });
  return { userId, driverId: truck.driverId, email: account.email, password: account.password, name: `${firstName} ${lastName}`, unit: truck.spec.unit };
}
