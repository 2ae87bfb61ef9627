import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function AcceptInvitationPage() {
  return <PageHeader title="AcceptInvitation" />;
}
