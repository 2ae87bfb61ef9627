import { PageHeader } from '../../components/ui';

/** Placeholder: this page is being built. */
export function LocationDetailPage() {
  return <PageHeader title="LocationDetail" />;
}
