"""What every room of the runtime speaks: its values (units, places, dice, the printed 'X'), the requests
a suspended procedure waits on, and the errors a run stops with."""
