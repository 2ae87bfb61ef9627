import type { AlertSettings, MonitoringSettings } from '../../domain/alerts/types.js';

export type { AlertSettings, MonitoringSettings };

export function defaultAlertSettings(): AlertSettings {
  return {
    hosApproachingThresholdHours: 1,
    routeDeviationThresholdMiles: 5,
    unplannedStopThresholdMinutes: 30,
    dockDelayThresholdMinutes: 120,
    enableWeatherAlerts: true,
    enableMechanicalAlerts: true,
  };
}

export function defaultMonitoringSettings(intervalSeconds: number): MonitoringSettings {
  return { monitoringIntervalSeconds: intervalSeconds, autoResolveDeviationAfterMinutes: 15, hosWarningThresholdMinutes: 30, telemetryStaleMinutes: 15 };
}

/** The HOS rule set the tenant plans and evaluates under (see src/domain/hos/README.md). */
export interface HosSettings {
  ruleSet: 'US_PROPERTY_70_8' | 'US_PROPERTY_60_7' | 'TEXAS_INTRASTATE' | 'CALIFORNIA_INTRASTATE' | 'CANADA_CYCLE_1' | 'CANADA_CYCLE_2';
  adverseDrivingConditions: boolean;
  shortHaul16Hour: boolean;
  shortHaul150AirMile: boolean;
  homeTerminalUtcOffsetMinutes: number;
  /**
   * The home terminal's time zone (IANA), whose clocks the daily logs' 24-hour periods keep (49 CFR
   * 395.8(a)(1)); null: the zone of the organization's address, else America/Chicago. A driver's own
   * home terminal, when set, comes first.
   */
  homeTerminalTimeZone: string | null;
  /** When each 24-hour period starts on those clocks, "HH:MM" (395.8: the time the carrier specifies). */
  periodStartTime: string;
}

export function defaultHosSettings(): HosSettings {
  return { ruleSet: 'US_PROPERTY_70_8', adverseDrivingConditions: false, shortHaul16Hour: false, shortHaul150AirMile: false, homeTerminalUtcOffsetMinutes: 0, homeTerminalTimeZone: null, periodStartTime: '00:00' };
}

/** An IANA time zone this runtime knows ("America/Chicago"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.includes('/') || zone === 'UTC';
  } catch {
    return false;
  }
}
