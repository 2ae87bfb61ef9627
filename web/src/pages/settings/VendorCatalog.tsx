/** The vendor registry by category: what each vendor brings and needs, and (for an admin) a Connect button. */
import { type Item } from '../../api/client';
import { Button } from '../../components/ui';
import { configFieldLabel } from '../../lib/settings';

type Vendor = Item<'/api/v1/integrations/vendors'>;

const CATEGORIES: Array<[Vendor['category'], string]> = [
  ['ELD', 'Electronic logging devices'],
  ['TMS', 'Transportation management'],
  ['FUEL', 'Fuel prices'],
  ['WEATHER', 'Weather'],
];

export function VendorCatalog({ vendors, canEdit, onConnect }: { vendors: readonly Vendor[]; canEdit: boolean; onConnect: (v: Vendor) => void }) {
  return CATEGORIES.filter(([c]) => vendors.some((v) => v.category === c)).map(([category, label]) => (
    <section key={category} aria-labelledby={`cat-${category}`}>
      <h3 id={`cat-${category}`}>{label}</h3>
      <ul className="vendor-grid">
        {vendors
          .filter((v) => v.category === category)
          .map((v) => (
            <li key={v.vendor} className="card vendor">
              <h4>{v.name}</h4>
              <p className="small">{v.description}</p>
              <p className="muted small">
                Needs: {v.requiredFields.length > 0 ? v.requiredFields.map(configFieldLabel).join(', ') : 'no credentials'} · syncs every {v.defaultSyncInterval} min
                {v.documentationUrl && (
                  <>
                    {' · '}
                    <a href={v.documentationUrl} target="_blank" rel="noreferrer">
                      documentation
                    </a>
                  </>
                )}
              </p>
              {canEdit && (
                <Button onClick={() => onConnect(v)} aria-label={`Connect ${v.name}`}>
                  Connect
                </Button>
              )}
            </li>
          ))}
      </ul>
    </section>
  ));
}
