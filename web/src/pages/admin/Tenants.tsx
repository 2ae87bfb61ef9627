import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function AdminTenantsPage() {
  return <PageHeader title="AdminTenants" />;
}
