/** An agent (staff member) whom ticket/reply and ticket/close act as. */
export interface Agent {
  id: number;
  username: string;
  name: string;
  email: string;
  deptId: number;
  isActive: boolean;
  created: string;
}

export interface NewAgent {
  username: string;
  name: string;
  email: string;
  deptId: number;
}
