// The rules pages: only the live connection's indicator, as on every page.
import { connect } from "./live.js";

connect();
