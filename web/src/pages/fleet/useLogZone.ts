/** The zone a driver's logs are shown in, remembered in this browser. */
import { useCallback, useMemo, useState } from 'react';
import { chosenLogZone, timeZoneOptions } from '../../lib/log-window';

const ZONE_KEY = 'fleet.logTimeZone';

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The zone the logs are shown in: the last one chosen here, else the browser's. */
export function useLogZone(): [string, (z: string) => void, Array<{ value: string; label: string }>] {
  const options = useMemo(() => timeZoneOptions(browserZone()), []);
  const [zone, setZone] = useState(() => chosenLogZone(localStorage.getItem(ZONE_KEY), options, browserZone()));
  const choose = useCallback((z: string) => {
    setZone(z);
    localStorage.setItem(ZONE_KEY, z);
  }, []);
  return [zone, choose, options];
}
