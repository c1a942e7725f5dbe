import type { FederationPeople } from '../services/federation-people.js'

/** What every dispatcher is handed with a request (Fedify's context data): the services it translates from. */
export interface ChirpFederationData {
  people: FederationPeople
}
