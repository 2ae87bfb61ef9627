/**
 * Users and invitations (OWNER and ADMIN): the organization's users with role changes and deactivation,
 * and invitations by e-mail — a DRIVER invitation may link a driver profile, so the driver signs in to
 * their own route and clocks.
 */
import { useState } from 'react';
import { useRoleAtLeast } from '../../api/session';
import { Notice } from '../../components/ui';
import { InvitationsList } from './InvitationsList';
import { InviteUserForm } from './InviteUserForm';
import { UsersList } from './UsersList';

export function UsersTab() {
  const canManage = useRoleAtLeast('ADMIN');
  if (!canManage) return <Notice>Only an owner or administrator can see and manage users and invitations.</Notice>;
  return <UsersAndInvitations />;
}

function UsersAndInvitations() {
  // A new invitation reloads the invitation list.
  const [invTick, setInvTick] = useState(0);
  return (
    <div className="stack">
      <InviteUserForm tick={invTick} onInvited={() => setInvTick((t) => t + 1)} />
      <InvitationsList tick={invTick} />
      <UsersList />
    </div>
  );
}
