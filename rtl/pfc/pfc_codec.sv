// pfc_codec: the PFC frame encoder and decoder side by side (independent, every port
// exposed), the top of their own lockstep testbench and synthesis report.
`default_nettype none

module pfc_codec (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  // encoder
  input  wire logic [47:0] src_mac_i,
  input  wire logic        req_valid_i,
  input  wire logic [2:0]  req_prio_i,
  input  wire logic [15:0] req_quanta_i,
  output logic             tx_valid_o,
  input  wire logic        tx_ready_i,
  output logic      [63:0] tx_data_o,
  output logic      [7:0]  tx_keep_o,
  output logic             tx_last_o,
  output logic             frame_sent_o,
  // decoder
  input  wire logic        rx_valid_i,
  output logic             rx_ready_o,
  input  wire logic [63:0] rx_data_i,
  input  wire logic [7:0]  rx_keep_i,
  input  wire logic        rx_last_i,
  input  wire logic        rx_err_i,
  output logic             evt_valid_o,
  input  wire logic        evt_ready_i,
  output logic      [2:0]  evt_prio_o,
  output logic      [15:0] evt_quanta_o,
  output logic             good_o,
  output logic             bad_o
);
  pfc_frame_enc u_enc (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .src_mac_i    (src_mac_i),
    .req_valid_i  (req_valid_i),
    .req_prio_i   (req_prio_i),
    .req_quanta_i (req_quanta_i),
    .tx_valid_o   (tx_valid_o),
    .tx_ready_i   (tx_ready_i),
    .tx_data_o    (tx_data_o),
    .tx_keep_o    (tx_keep_o),
    .tx_last_o    (tx_last_o),
    .frame_sent_o (frame_sent_o)
  );
  pfc_frame_dec u_dec (
    .clk_i        (clk_i),
    .rst_ni       (rst_ni),
    .rx_valid_i   (rx_valid_i),
    .rx_ready_o   (rx_ready_o),
    .rx_data_i    (rx_data_i),
    .rx_keep_i    (rx_keep_i),
    .rx_last_i    (rx_last_i),
    .rx_err_i     (rx_err_i),
    .evt_valid_o  (evt_valid_o),
    .evt_ready_i  (evt_ready_i),
    .evt_prio_o   (evt_prio_o),
    .evt_quanta_o (evt_quanta_o),
    .good_o       (good_o),
    .bad_o        (bad_o)
  );
endmodule

`default_nettype wire
