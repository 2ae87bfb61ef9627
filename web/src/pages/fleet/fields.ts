/** The create/edit fields of each fleet record, as the API's create and update bodies take them. */
import type { FieldSpec } from '../../lib/forms';
import { humanize } from '../../lib/format';
import { LICENSE_REGIONS, LOCATION_TYPES } from '../../lib/fleet';

const opts = (values: readonly string[]) => values.map((v) => ({ value: v, label: humanize(v) }));

export const DRIVER_FIELDS: FieldSpec[] = [
  { name: 'firstName', label: 'First name', required: true, maxLength: 100 },
  { name: 'lastName', label: 'Last name', required: true, maxLength: 100 },
  { name: 'licenseNumber', label: 'License number', required: true, maxLength: 25, hint: 'Letters, digits, spaces and hyphens' },
  { name: 'licenseState', label: 'License state', kind: 'select', required: true, options: LICENSE_REGIONS.map((r) => ({ value: r, label: r })), hint: 'US state, territory or Canadian province' },
  { name: 'truckNumber', label: 'Truck number', maxLength: 50 },
  { name: 'phoneNumber', label: 'Phone', kind: 'tel', maxLength: 40, placeholder: '+1 214 555 0142' },
  { name: 'email', label: 'Email', kind: 'email', maxLength: 254 },
  { name: 'externalId', label: 'External ID', maxLength: 100, hint: 'The driver’s id in your ELD or payroll system (ELD syncs match by it)' },
  {
    name: 'homeTerminal.address',
    label: 'Home terminal',
    maxLength: 300,
    placeholder: 'Dallas, TX',
    hint: 'City and state or ZIP of the terminal or yard they are based at: Find a driver starts them there when nothing newer is known',
  },
  { name: 'homeTerminal.name', label: 'Home terminal name', maxLength: 120, hint: 'Optional, e.g. “Dallas yard”; the place’s name otherwise' },
];

export const VEHICLE_FIELDS: FieldSpec[] = [
  { name: 'unitNumber', label: 'Unit number', required: true, maxLength: 50 },
  { name: 'vin', label: 'VIN', maxLength: 17, hint: '17 characters, no I, O or Q' },
  { name: 'make', label: 'Make', maxLength: 50 },
  { name: 'model', label: 'Model', maxLength: 50 },
  { name: 'year', label: 'Model year', kind: 'integer', min: 1980, max: 9999 },
  { name: 'licensePlate', label: 'License plate', maxLength: 20 },
  { name: 'fuelTankGallons', label: 'Fuel tank (gallons)', kind: 'number', min: 10, max: 400, hint: 'Usable capacity; 150 if left empty' },
  { name: 'mpg', label: 'Miles per gallon', kind: 'number', min: 2, max: 15, hint: 'Average; 6.5 if left empty' },
  { name: 'status', label: 'Status', kind: 'select', required: true, defaultValue: 'ACTIVE', createOnly: true, options: opts(['ACTIVE', 'IN_MAINTENANCE', 'INACTIVE']) },
  { name: 'eldExternalId', label: 'ELD vehicle ID', maxLength: 100, hint: 'The vehicle’s identifier at your ELD provider' },
];

export const LOAD_FIELDS: FieldSpec[] = [
  { name: 'referenceNumber', label: 'Reference number', required: true, maxLength: 50 },
  { name: 'customer', label: 'Customer', maxLength: 200 },
  { name: 'originAddress', label: 'Origin address', maxLength: 300 },
  { name: 'destinationAddress', label: 'Destination address', maxLength: 300 },
  { name: 'scheduledPickup', label: 'Scheduled pickup', kind: 'datetime', hint: 'In your browser’s time zone' },
  { name: 'scheduledDelivery', label: 'Scheduled delivery', kind: 'datetime', hint: 'Not before the pickup' },
  { name: 'weight', label: 'Weight (lb)', kind: 'number', min: 0, max: 200000 },
  { name: 'commodity', label: 'Commodity', maxLength: 200 },
  { name: 'externalId', label: 'External ID', maxLength: 100, hint: 'Your own identifier for the load' },
];

export const LOCATION_FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Name', required: true, maxLength: 200 },
  { name: 'type', label: 'Type', kind: 'select', required: true, options: opts(LOCATION_TYPES) },
  { name: 'address', label: 'Address', maxLength: 300 },
  { name: 'latitude', label: 'Latitude', kind: 'number', required: true, min: -90, max: 90, placeholder: '32.7767' },
  { name: 'longitude', label: 'Longitude', kind: 'number', required: true, min: -180, max: 180, placeholder: '-96.7970' },
  { name: 'fuelDiscountPerGallon', label: 'Fuel discount ($/gal)', kind: 'number', min: 0, max: 2, hint: 'Negotiated discount; the planner prefers discounted stops' },
  { name: 'amenities.parking', label: 'Truck parking', kind: 'checkbox' },
  { name: 'amenities.showers', label: 'Showers', kind: 'checkbox' },
  { name: 'amenities.diesel', label: 'Diesel', kind: 'checkbox' },
  { name: 'externalId', label: 'External ID', maxLength: 100, hint: 'Your identifier; the CSV import updates by it' },
];
