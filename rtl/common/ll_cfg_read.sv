// ll_cfg_read: the register interface's read response (docs/CONVENTIONS.md). A read
// (re_i) of the combinational read data data_i answers one cycle later on rdata_o with
// rvalid_o high; rdata_o is 0 in every other cycle, so a bus can OR several responses.
`default_nettype none

module ll_cfg_read (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        re_i,
  input  wire logic [31:0] data_i,
  output logic      [31:0] rdata_o,
  output logic             rvalid_o
);
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rdata_o  <= '0;
      rvalid_o <= 1'b0;
    end else begin
      rdata_o  <= re_i ? data_i : '0;
      rvalid_o <= re_i;
    end
  end
endmodule

`default_nettype wire
