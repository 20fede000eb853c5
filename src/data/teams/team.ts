/** A team tickets can be assigned to (team/all): osTicket's `team`. */
export interface Team {
  id: number;
  name: string;
  isEnabled: boolean;
}

export interface NewTeam {
  name: string;
  isEnabled: boolean;
}

/** A team row: deskgate's schema stores the enabled bit alone, osTicket in `flags`. */
export interface TeamRow {
  id: number;
  name: string;
  is_enabled: number | null;
  flags: number | null;
}
